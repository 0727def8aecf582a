// The browser bundle (accord-elements.js): the SDK and both elements, registered on load.
import { defineAccordElements } from './elements';

export * from './index';
export * from './elements';
defineAccordElements();
