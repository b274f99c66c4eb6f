/**
 * The editor's own Content-Security-Policy, in `astro dev` only (./editor.ts adds this middleware
 * then). The site's policy (astro.config.mjs `security.csp`) allows scripts by hash, which the
 * editor's React app and its inline styles cannot meet; its routes get this one instead, still
 * same-origin only. Every other route keeps the site's policy.
 */
import { defineMiddleware } from 'astro:middleware';
import { EDITOR_ROUTES } from './editor';

export const EDITOR_CSP = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline' https://fonts.googleapis.com",
  "img-src 'self' data: blob:",
  // Keystatic's own typeface (Inter), which its interface loads from Google Fonts.
  "font-src 'self' data: https://fonts.gstatic.com",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const onRequest = defineMiddleware(async (context, next) => {
  if (!EDITOR_ROUTES.has(context.routePattern)) return next();
  const response = await next();
  const headers = new Headers(response.headers);
  headers.set('Content-Security-Policy', EDITOR_CSP);
  return new Response(response.body, {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
});
