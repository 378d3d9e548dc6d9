// The create call's client_collection_id: made once at Start and kept with the draft, so a resend
// after a lost answer gets the same collection back rather than a second one.
import { randomUuid } from '../../../lib/random-uuid';

export const newClientCollectionId = randomUuid;
