/**
 * The content model: every collection of src/content/, each field declared once (./fields.ts says
 * how). The site's schema (./zod.ts, for src/content.config.ts), the visual editor's
 * (src/editor/schema.ts) and content-schema.md's field reference (./reference.ts,
 * `npm run docs:content`) are made from it. In the editor's order.
 */
import { availability } from './availability.ts';
import {
  enquiryServices,
  feedback,
  homePortfolio,
  portfolio,
  pricing,
  technologies,
  testimonials,
} from './lists.ts';
import { pages } from './pages.ts';
import { redirects } from './redirects.ts';
import { services } from './services.ts';
import { settings } from './settings.ts';

export const contentModel = {
  services,
  pages,
  testimonials,
  portfolio,
  homePortfolio,
  feedback,
  pricing,
  enquiryServices,
  technologies,
  settings,
  availability,
  redirects,
};

export type ContentModel = typeof contentModel;
