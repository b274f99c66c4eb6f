/** The lists the pages show: src/content/data/*.yaml, an entry each, in the order of the file. */
import { fileLengths, patterns, technologyStacks } from '../domain/content-rules.ts';
import { portfolioTags } from '../domain/portfolio.ts';
import { listFile } from './collections.ts';
import { checkbox, image, list, pattern, select, someOf, text } from './fields.ts';
import { alt } from './shared.ts';

const data = (name: string) => `src/content/data/${name}.yaml`;
const sizes = fileLengths;

export const testimonials = listFile({
  label: 'Testimonials',
  file: data('testimonials'),
  shownAt: "the service pages' testimonials",
  itemLabel: (entry) => entry.company,
  fields: {
    company: text({
      label: 'Company',
      span: sizes.testimonials.company,
      about: 'The client company.',
    }),
    content: text({
      label: 'Quote',
      span: sizes.testimonials.quote,
      multiline: true,
      about: 'The quote, without quotation marks.',
    }),
    person: text({
      label: 'Person',
      span: sizes.testimonials.person,
      about: 'Who said it, with their role.',
    }),
    image: image({ label: 'Logo', folder: 'logos', about: 'The company logo, 160 × 48.' }),
    alt,
  },
});

export const portfolio = listFile({
  label: 'Portfolio',
  file: data('portfolio'),
  shownAt: 'the Portfolio page',
  itemLabel: (entry) => entry.title,
  fields: {
    title: text({
      label: 'Title',
      span: sizes.portfolio.title,
      about: 'The project name shown under the image.',
    }),
    client: text({
      label: 'Client',
      span: sizes.portfolio.client,
      about: 'A description of the client (no names without their consent).',
    }),
    tags: someOf({
      label: 'Tags',
      options: portfolioTags,
      hint: 'The filters that show the project: at least one.',
      about:
        'The filters that show the project. A project can have more than one. Today each filter shows 4 projects.',
    }),
    image: image({
      label: 'Image',
      folder: 'portfolio',
      about:
        'A 4:3 mockup or screenshot: an 800 × 600 SVG, or a PNG or JPEG of 1600 × 1200 or about (two projects are 1280 × 960 screenshots of this site).',
    }),
    alt,
  },
});

export const homePortfolio = listFile({
  label: 'Home carousel: portfolio',
  file: data('home-portfolio'),
  shownAt: "the home page's portfolio carousel",
  itemLabel: (entry) => entry.title,
  fields: {
    title: text({ label: 'Title', span: sizes.portfolio.title, about: 'Shown under the image.' }),
    image: image({ label: 'Image', folder: 'portfolio', about: "The project's mockup." }),
    alt,
    href: pattern({
      label: 'Link',
      rule: patterns.internalPath,
      default: '/portfolio',
      about: 'Where the slide links to.',
    }),
  },
});

export const feedback = listFile({
  label: 'Home carousel: feedback',
  file: data('feedback'),
  shownAt: "the home page's feedback carousel",
  itemLabel: (entry) => entry.name,
  fields: {
    quote: text({
      label: 'Quote',
      span: sizes.feedback.quote,
      multiline: true,
      about: 'What the customer said.',
    }),
    name: text({ label: 'Name', span: sizes.feedback.name, about: 'Their name.' }),
    company: text({ label: 'Company', span: sizes.feedback.company, about: 'Their company.' }),
  },
});

export const pricing = listFile({
  label: 'Pricing',
  file: data('pricing'),
  shownAt: "the home page's pricing plans",
  itemLabel: (entry) => entry.name,
  fields: {
    name: text({ label: 'Name', span: sizes.pricing.name, about: 'The plan name.' }),
    price: pattern({ label: 'Price', rule: patterns.price, about: 'The price.' }),
    features: list({
      label: 'Features',
      of: text({ label: 'Feature', span: sizes.pricing.feature }),
      count: sizes.pricing.features,
      itemLabel: (feature) => feature,
      about: 'What the plan includes.',
    }),
    usersNote: text({
      label: 'Users note',
      span: sizes.pricing.usersNote,
      about: 'The note about users, e.g. "Up to 7 users, then $1.99 per user".',
    }),
    popular: checkbox({
      label: 'Most popular',
      default: false,
      about: 'Shows the "Most popular" badge and highlights the plan.',
    }),
    href: pattern({
      label: 'Sign-up link',
      rule: patterns.internalPath,
      default: '/',
      about: 'Where the "Sign up" button leads.',
    }),
  },
});

export const enquiryServices = listFile({
  label: 'Enquiry services',
  file: data('enquiry-services'),
  shownAt: "the enquiry form's services",
  itemLabel: (entry) => entry.label,
  fields: {
    label: text({
      label: 'Label',
      span: sizes.enquiryServices.label,
      about:
        'The checkbox text. It is also the value the form sends to the server and what the enquiry e-mail says, so keep it stable.',
    }),
  },
});

export const technologies = listFile({
  label: 'Technologies',
  file: data('technologies'),
  shownAt: "the About page's technologies",
  itemLabel: (entry) => entry.name,
  fields: {
    name: text({ label: 'Name', span: sizes.technologies.name, about: 'Shown under the badge.' }),
    href: pattern({
      label: 'Link',
      rule: patterns.internalPath,
      about: "The technology's page, e.g. `/flutter`.",
    }),
    stack: select({
      label: 'Stack',
      options: technologyStacks,
      about: 'The About page technology-stack tab that lists it.',
    }),
    monogram: text({
      label: 'Monogram',
      span: sizes.technologies.monogram,
      about: 'The letters drawn on its badge.',
    }),
    color: pattern({
      label: 'Colour',
      rule: patterns.color,
      about:
        "The badge colour, in quotes: `'#0e7490'`. Keep it dark enough for white letters (4.5:1).",
    }),
  },
});
