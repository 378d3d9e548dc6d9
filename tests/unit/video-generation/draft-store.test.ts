import { describe, expect, it } from 'vitest';
import { readVideoDraft, writeVideoDraft } from '../../../src/lib/db/video-draft-store';
import { wipeAllUserData, wipeOtherUsersData, wipeUserData } from '../../../src/lib/db/wipe-user';

describe('the video draft on the device', () => {
  it('is kept per user and wiped with the user: on logout, for another account, and all at once', async () => {
    await writeVideoDraft({ userKey: 'id:1', savedAt: 1, files: [new Blob(['x'], { type: 'image/png' })] });
    await writeVideoDraft({ userKey: 'id:2', savedAt: 1 });
    const stored = await readVideoDraft<{ userKey: string; savedAt: number; files: Blob[] }>('id:1');
    expect(stored?.files).toHaveLength(1);

    await wipeOtherUsersData('id:1');
    expect(await readVideoDraft('id:2')).toBeUndefined();
    expect(await readVideoDraft('id:1')).toBeDefined();

    await wipeUserData('id:1');
    expect(await readVideoDraft('id:1')).toBeUndefined();

    await writeVideoDraft({ userKey: 'id:3', savedAt: 1 });
    await wipeAllUserData();
    expect(await readVideoDraft('id:3')).toBeUndefined();
  });
});
