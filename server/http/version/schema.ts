import { z } from 'zod';

/** part 1 §7 GET /version's answer. */
export const versionAnswer = z.object({
  version: z.string().meta({ description: "The server's release; the client offers a reload when it changes." }),
});
