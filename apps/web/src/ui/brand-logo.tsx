/**
 * The product's logo, 72 px. The file is public/logo.svg, which the favicon, the app icons
 * and the static sign-in header of index.html use too. Decorative: the app name is beside it.
 */
export function BrandLogo() {
  return <img className="tt-brand-mark" src="./logo.svg" width={72} height={72} alt="" />;
}
