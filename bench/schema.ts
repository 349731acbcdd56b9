/** The validating KubeletConfiguration schema given to the yaml-language-server peer; generated in server/src/catalog/schema.ts. */
export { kubeletConfigSchema } from '../server/src/catalog/schema.ts';
