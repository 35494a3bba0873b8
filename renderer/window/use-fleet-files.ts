import { useEffect, useState } from 'react';
import type { FleetFileInfo } from '../../shared/fleet-file.ts';
import { useApi } from './app-context.tsx';

/** The fleet files main follows, kept current by its `fleetFilesChanged` events; empty until read. */
export function useFleetFiles(): FleetFileInfo[] {
  const api = useApi();
  const [files, setFiles] = useState<FleetFileInfo[]>([]);
  useEffect(() => {
    let live = true;
    void api.listFleetFiles().then(
      (listed) => live && setFiles(listed),
      () => undefined,
    );
    const stop = api.onEvent((event) => {
      if (event.type === 'fleetFilesChanged') setFiles(event.files);
    });
    return () => {
      live = false;
      stop();
    };
  }, [api]);
  return files;
}
