// Build-time configuration (packages/web/.env or the environment of `vite build`). Empty or
// unset: the page shows the written version only.
const env = import.meta.env as Record<string, string | undefined>;

/** The home page's how-to-use video (search-and-accounts §1). */
export const HOW_TO_VIDEO_URL = env.VITE_HOW_TO_VIDEO_URL ?? '';

/** 'Healthcare - Why Price Transparency Matters' on the use-cases page. */
export const WHY_TRANSPARENCY_VIDEO_URL = env.VITE_WHY_TRANSPARENCY_VIDEO_URL ?? '';
