import { describe, expect, it } from 'vitest';
import { ERROR_TAGS, PlatformError, invalidRequest, isPlatformError } from '@platform/sdk';

describe('error family', () => {
  it('serializes to the spec body with the tag status and fields', () => {
    const err = new PlatformError('PlatformAppScopeMissingError', 'needs blocks:write', { fields: { scope: 'blocks:write' } });
    expect(err.status).toBe(403);
    expect(err.toBody()).toEqual({ _tag: 'PlatformAppScopeMissingError', message: 'needs blocks:write', path: [], scope: 'blocks:write' });
    expect(isPlatformError(err)).toBe(true);
    expect(isPlatformError(new Error('x'))).toBe(false);
  });

  it('fields can never overwrite _tag, message or path', () => {
    const err = new PlatformError('PlatformAppNotFoundError', 'm', { fields: { _tag: 'x', message: 'y', path: ['z'] } });
    expect(err.toBody()).toEqual({ _tag: 'PlatformAppNotFoundError', message: 'm', path: [] });
  });

  it('builds the invalid-request error with issues', () => {
    const err = invalidRequest([{ path: ['a', 0], message: 'bad' }]);
    expect(err.toBody()).toMatchObject({ _tag: 'PlatformApiInvalidRequestError', path: ['a', 0], issues: [{ path: ['a', 0], message: 'bad' }] });
  });

  it.each([
    ['PlatformApiInvalidRequestError', 400], ['PlatformAppTokenMissingError', 401], ['PlatformAppTokenInvalidError', 401],
    ['PlatformAppInteractionExpiredError', 401], ['PlatformAppInstallRevokedError', 403], ['PlatformApiRateLimitExceededError', 429],
    ['PlatformApiInternalServerError', 500], ['PlatformApiServiceUnavailableError', 503], ['PlatformAppScopeMissingError', 403],
    ['PlatformAppCircleNotFoundError', 404], ['PlatformAppStreamRevokedError', 410], ['PlatformAppStreamInvalidPayloadError', 400],
    ['PlatformAppReferenceKindUnknownError', 422], ['PlatformAppReferenceKindNotSearchableError', 422], ['PlatformAppBlockTypeUnknownError', 422],
    ['PlatformAppBlockStateInvalidError', 422], ['PlatformAppsUnavailableError', 403], ['PlatformAppDevSlugUnavailableError', 409],
    ['PlatformAppDeployTargetForbiddenError', 403], ['PlatformAppNotFoundError', 404], ['PlatformAppManifestInvalidError', 422],
    ['PlatformAppPatternInvalidError', 422],
  ] as const)('%s answers %i as the spec says', (tag, status) => {
    expect(ERROR_TAGS[tag].status).toBe(status);
    expect(ERROR_TAGS[tag].source).toBe('spec');
  });
});
