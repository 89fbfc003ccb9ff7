/** The editors' Markdown (src/content/README.md), imported as text and rendered by <Markdown>. */
export { default as howToText } from '../../content/home-how-to.md?raw';
export { default as explainerText } from '../../content/home-explainer.md?raw';
export { default as alaskaRatesText } from '../../content/home-alaska-rates.md?raw';
export { default as educationText } from '../../content/home-education.md?raw';
export { default as howToBuyText } from '../../content/how-to-buy-low-cost-healthcare.md?raw';
export { default as omegaNotesText } from '../../content/omega-notes.md?raw';
export { default as missionText } from '../../content/mission.md?raw';
export { default as teamText } from '../../content/team.md?raw';
export { default as productsText } from '../../content/products-and-services.md?raw';
export { default as whyTransparencyText } from '../../content/why-transparency.md?raw';
export { default as useOfRatesText } from '../../content/use-of-rates.md?raw';
export { default as partnersText } from '../../content/partners.md?raw';
export { default as privacyPolicyText } from '../../content/privacy-policy.md?raw';
export { default as termsText } from '../../content/terms.md?raw';
