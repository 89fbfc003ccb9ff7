/** The editors' Markdown (src/content/README.md), compiled at build time and rendered by <Markdown>. */
export { default as howToText } from '../../content/home-how-to.md?tree';
export { default as explainerText } from '../../content/home-explainer.md?tree';
export { default as alaskaRatesText } from '../../content/home-alaska-rates.md?tree';
export { default as educationText } from '../../content/home-education.md?tree';
export { default as howToBuyText } from '../../content/how-to-buy-low-cost-healthcare.md?tree';
export { default as omegaNotesText } from '../../content/omega-notes.md?tree';
export { default as missionText } from '../../content/mission.md?tree';
export { default as teamText } from '../../content/team.md?tree';
export { default as productsText } from '../../content/products-and-services.md?tree';
export { default as whyTransparencyText } from '../../content/why-transparency.md?tree';
export { default as useOfRatesText } from '../../content/use-of-rates.md?tree';
export { default as partnersText } from '../../content/partners.md?tree';
export { default as privacyPolicyText } from '../../content/privacy-policy.md?tree';
export { default as termsText } from '../../content/terms.md?tree';
