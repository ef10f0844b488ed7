export const APPLICATIONS_PATH = "/migration/application";
export const CREATE_APPLICATION_PATH = `${APPLICATIONS_PATH}/create`;
/** Set by the create page's redirect: the list highlights the application just created (the flash message names it). */
export const CREATED_PARAM = "created";
