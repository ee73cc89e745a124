import { DomainError } from '../../../common/errors/domain-error';
import { refused } from '../../fleet/agent-channel/agent-channel';
import { AgentsErrorCode } from '../../fleet/agent-channel/agent-channel.errors';
import { SessionEndedError } from '../../fleet/agent-channel/agent-sessions';
import { codeOfRefusal, filesError } from './agent-refusals';
import { FilesErrorCode } from './files.errors';

describe("the agent's words for a file's trouble", () => {
  it('maps each to its code, and words it does not know to AgentFailed', () => {
    expect(codeOfRefusal('no such file or directory')).toBe(FilesErrorCode.NoSuchFile);
    expect(codeOfRefusal('permission denied')).toBe(FilesErrorCode.PermissionDenied);
    expect(codeOfRefusal('not a directory')).toBe(FilesErrorCode.WrongKind);
    expect(codeOfRefusal('is a directory')).toBe(FilesErrorCode.WrongKind);
    expect(codeOfRefusal('path must be absolute')).toBe(FilesErrorCode.WrongKind);
    expect(codeOfRefusal('file exists')).toBe(FilesErrorCode.FileExists);
    expect(codeOfRefusal(`checksum mismatch: expected ${'a'.repeat(64)}, got ${'b'.repeat(64)}`)).toBe(FilesErrorCode.ChecksumMismatch);
    expect(codeOfRefusal('incomplete: 5 of 9 bytes')).toBe(FilesErrorCode.UploadConflict);
    expect(codeOfRefusal('disk quota exceeded')).toBe(FilesErrorCode.AgentFailed);
  });

  it("turns a command's refusal and a session's failed end into the code with the agent's words as the message", () => {
    const fromCommand = filesError(refused('permission denied')) as DomainError;
    expect([fromCommand.code, fromCommand.message]).toEqual([FilesErrorCode.PermissionDenied, 'permission denied']);
    const fromSession = filesError(new SessionEndedError({ reason: 'no such file or directory', error: true })) as DomainError;
    expect([fromSession.code, fromSession.message]).toEqual([FilesErrorCode.NoSuchFile, 'no such file or directory']);
    const gone = filesError(new SessionEndedError({ reason: 'agent_offline', error: true })) as DomainError;
    expect([gone.code, gone.message]).toEqual([FilesErrorCode.AgentOffline, 'agent is offline']);
    const notConnected = filesError(new DomainError(AgentsErrorCode.NotConnected, 'agent is not connected')) as DomainError;
    expect(notConnected.code).toBe(FilesErrorCode.AgentOffline);
    const timeout = new DomainError(AgentsErrorCode.NoAnswer, 'agent did not answer within 30 s');
    expect(filesError(timeout)).toBe(timeout);
  });
});
