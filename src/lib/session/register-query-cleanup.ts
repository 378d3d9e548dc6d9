// The query cache holds the user's data: cancel and drop it on logout.
import { queryClient } from '../query/query-client';
import { registerLogoutCleanup } from './logout-cleanup';

registerLogoutCleanup(async () => {
  await queryClient.cancelQueries();
  queryClient.clear();
});
