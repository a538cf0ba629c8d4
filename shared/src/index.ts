// @gatehouse/shared entry point. Deep imports (`@gatehouse/shared/rules/urls`) work as well.
export * from './constants';
export * from './rules/index';
