export const APPLICATIONS_PATH = "/migration/application";
export const CREATE_APPLICATION_PATH = `${APPLICATIONS_PATH}/create`;
/** Set by the create page's redirect: the list then says which application was just created. */
export const CREATED_PARAM = "created";
