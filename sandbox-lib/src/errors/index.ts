export { ERROR_TAGS, type ErrorTag, type ErrorTagInfo } from './tags.ts';
export { PlatformError, isPlatformError, invalidRequest, type ErrorBody, type PathSegment, type RequestIssue } from './platform-error.ts';
