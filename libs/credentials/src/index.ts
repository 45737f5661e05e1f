export * from './format.js';
export * from './permissions.js';
