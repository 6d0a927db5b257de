/** Shown in the header, the sign-in card and the document title. */
export const PRODUCT_NAME = 'Object Console';
