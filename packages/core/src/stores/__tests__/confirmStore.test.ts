import { describe, expect, it } from 'vitest';
import {
  CONFIRM_BASE_Z_INDEX,
  confirmStore,
  createConfirmStore,
  openConfirm,
} from '../../index.js';

describe('confirm store', () => {
  it('has the base stacking level 10000', () => {
    expect(CONFIRM_BASE_Z_INDEX).toBe(10000);
  });

  it.each(['accept', 'reject', 'cancel'] as const)(
    'resolves with %s and closes',
    async (outcome) => {
      const store = createConfirmStore();
      const result = store
        .getState()
        .confirm({ message: 'Delete?', header: 'Sure', acceptLabel: 'Yes', rejectLabel: 'No' });
      expect(store.getState().current).toMatchObject({
        message: 'Delete?',
        header: 'Sure',
        acceptLabel: 'Yes',
        rejectLabel: 'No',
        zIndex: 10000,
      });
      store.getState()[outcome]();
      await expect(result).resolves.toBe(outcome);
      expect(store.getState().current).toBeNull();
    },
  );

  it('one dialog at a time: a second one cancels the first', async () => {
    const store = createConfirmStore({ zIndex: 20 });
    const first = store.getState().confirm({ message: 'one' });
    const firstId = store.getState().current!.id;
    const second = store.getState().confirm({ message: 'two' });
    await expect(first).resolves.toBe('cancel');
    expect(store.getState().current).toMatchObject({ message: 'two', zIndex: 20 });
    expect(store.getState().current!.id).toBeGreaterThan(firstId);
    store.getState().accept();
    await expect(second).resolves.toBe('accept');
  });

  it('ending with no dialog open does nothing', () => {
    const store = createConfirmStore();
    expect(() => store.getState().accept()).not.toThrow();
    expect(store.getState().current).toBeNull();
  });

  it('openConfirm uses the page store', async () => {
    const result = openConfirm({ message: 'Load new version?' });
    expect(confirmStore.getState().current?.message).toBe('Load new version?');
    confirmStore.getState().reject();
    await expect(result).resolves.toBe('reject');
  });
});
