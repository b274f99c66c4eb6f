import { useEffect, useRef, type ReactNode } from 'react';
import { FieldError } from './forms/FieldError';

interface ReCaptcha {
  render(element: HTMLElement, options: { sitekey: string }): number;
}
declare global {
  interface Window {
    grecaptcha?: ReCaptcha;
    onCaptchaApi?: () => void;
  }
}

let api: Promise<ReCaptcha> | undefined;

/** Google's reCAPTCHA script, added once, when the first form that needs it has hydrated. */
function loadApi(): Promise<ReCaptcha> {
  api ??= new Promise((resolve, reject) => {
    window.onCaptchaApi = () => resolve(window.grecaptcha!);
    const script = document.createElement('script');
    script.src = 'https://www.google.com/recaptcha/api.js?render=explicit&onload=onCaptchaApi';
    script.async = true;
    script.onerror = () => {
      api = undefined;
      reject(new Error('reCAPTCHA could not be loaded'));
    };
    document.head.append(script);
  });
  return api;
}

/** Where the captcha's message goes (and, with a site key, its widget). */
function CaptchaSlot({
  id,
  error,
  children,
}: {
  id: string;
  error?: string;
  children?: ReactNode;
}) {
  return (
    <div className="captcha-slot" id={id} tabIndex={error ? -1 : undefined}>
      {children}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/** The widget, drawn once the form's island has hydrated. */
function CaptchaWidget({ id, error }: { id: string; error?: string }) {
  const widget = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = widget.current;
    if (!element) return;
    let current = true;
    loadApi().then(
      (grecaptcha) => {
        if (current && !element.hasChildNodes())
          grecaptcha.render(element, { sitekey: __RECAPTCHA_SITE_KEY__ });
      },
      () => {
        // Offline or blocked: the server answers the post with the captcha's message.
      },
    );
    return () => {
      current = false;
    };
  }, []);
  return (
    <CaptchaSlot id={id} error={error}>
      <div ref={widget} />
    </CaptchaSlot>
  );
}

/**
 * The reCAPTCHA widget of a form, when the site was built with RECAPTCHA_SITE_KEY; otherwise only
 * the place of its message, and none of the widget's code. The widget puts its token in the form
 * as `g-recaptcha-response`, which the server checks with RECAPTCHA_SECRET. Its script loads only
 * once the form's island has hydrated, that is when a visitor starts using the form.
 */
export const Captcha = __RECAPTCHA_SITE_KEY__ ? CaptchaWidget : CaptchaSlot;
