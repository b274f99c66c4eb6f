import { useEffect, useRef } from 'react';
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

/**
 * The reCAPTCHA widget of a form, when the site was built with RECAPTCHA_SITE_KEY; nothing otherwise.
 * The widget puts its token in the form as `g-recaptcha-response`, which the server checks with
 * RECAPTCHA_SECRET. Its script loads only once the form's island has hydrated, that is when a
 * visitor starts using the form.
 */
export function Captcha({ id, error }: { id: string; error?: string }) {
  const widget = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!__RECAPTCHA_SITE_KEY__ || !widget.current) return;
    const element = widget.current;
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
    <div className="captcha-slot" id={id} tabIndex={error ? -1 : undefined}>
      {__RECAPTCHA_SITE_KEY__ && <div ref={widget} />}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}
