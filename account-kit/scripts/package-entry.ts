// Entry of the library build (scripts/build.mjs): the public API plus the stylesheet, which Vite's library mode
// extracts into dist/account-kit.css (the JavaScript does not import it; hosts import
// '@gatehouse/account-kit/styles.css').
import '../src/styles.css';
export * from '../src/index';
