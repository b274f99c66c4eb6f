/** The contact page's enquiry (POST /php/email.php) through the pipeline. */
import { handle } from './pipeline.ts';
import type { PostVerdict } from '../requests/post-gate.ts';
import type { OpenServices } from '../booking/services.ts';
import { enquiryInput, validateEnquiry, type EnquiryField } from '../../domain/enquiry-form.ts';

/** Service options are passed in: they are content (src/content/data/enquiry-services.yaml). */
export function handleEnquiry(
  request: Request,
  post: PostVerdict | undefined,
  open: OpenServices,
  serviceOptions: readonly string[],
) {
  return handle<EnquiryField, ReturnType<typeof enquiryInput>>(
    {
      kind: 'enquiry',
      captchaField: 'captcha',
      parse: (fields) => enquiryInput((name) => fields.get(name) ?? []),
      validate(input) {
        const { enquiry, errors } = validateEnquiry(input, serviceOptions);
        return {
          name: `${enquiry.first_name} ${enquiry.last_name}`,
          email: enquiry.email,
          data: { ...enquiry },
          errors,
        };
      },
    },
    request,
    post,
    open,
  );
}
