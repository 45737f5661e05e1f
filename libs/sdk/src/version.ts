/** This package's version (package.json's, which a test keeps it equal to), for the User-Agent. */
export const SDK_VERSION = '0.1.0';
