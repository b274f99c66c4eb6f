interface Props {
  /** The six service options of the enquiry form (spec §9). */
  services: string[];
}

/**
 * The enquiry form of the contact page. It posts natively to /php/email.php,
 * so it works before and without JavaScript.
 */
export default function EnquiryForm({ services }: Props) {
  return (
    <form className="form enquiry-form" method="post" action="/php/email.php" noValidate={false}>
      <div className="form__row">
        <div className="field">
          <label htmlFor="first_name">First name</label>
          <input
            id="first_name"
            name="first_name"
            type="text"
            autoComplete="given-name"
            required
            maxLength={100}
          />
        </div>
        <div className="field">
          <label htmlFor="last_name">Last name</label>
          <input
            id="last_name"
            name="last_name"
            type="text"
            autoComplete="family-name"
            required
            maxLength={100}
          />
        </div>
      </div>
      <div className="form__row">
        <div className="field">
          <label htmlFor="email">Email</label>
          <input
            id="email"
            name="email"
            type="email"
            autoComplete="email"
            required
            maxLength={254}
          />
        </div>
        <div className="field">
          <label htmlFor="contact">Phone number</label>
          <input
            id="contact"
            name="contact"
            type="tel"
            autoComplete="tel"
            inputMode="tel"
            required
          />
        </div>
      </div>
      <fieldset className="field field--group">
        <legend>Which services are you interested in?</legend>
        <ul className="checkboxes" role="list">
          {services.map((service, index) => (
            <li key={service}>
              <input id={`service-${index}`} type="checkbox" name="service" value={service} />
              <label htmlFor={`service-${index}`}>{service}</label>
            </li>
          ))}
        </ul>
      </fieldset>
      <div className="field">
        <label htmlFor="project">
          About your project <span className="field__optional">(optional)</span>
        </label>
        <textarea id="project" name="project" rows={6} maxLength={5000} />
      </div>
      <button className="button button--primary" type="submit">
        Send enquiry
      </button>
    </form>
  );
}
