import { contextBridge, ipcRenderer } from 'electron';
import { CONFIRMATION_CHANNELS, type PlanAnswer, type WritePlan } from '../../shared/write-plan.ts';

// The confirmation window's own preload (electron/main/write-confirmation.ts): its page gets the
// plan it asks about and one answer, nothing else: no contract, no events, no channel names.
contextBridge.exposeInMainWorld('writeConfirmation', {
  plan: (): Promise<WritePlan> => ipcRenderer.invoke(CONFIRMATION_CHANNELS.plan),
  answer: async (answer: PlanAnswer): Promise<void> => {
    await ipcRenderer.invoke(CONFIRMATION_CHANNELS.answer, answer);
  },
});
