// antd-mobile's Toast and Dialog bring its animation library (react-spring, ~20 KB
// gzipped); they load after the first screen instead of before it.
export { Dialog, Toast } from 'antd-mobile';
