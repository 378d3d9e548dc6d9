// The API client learns that a session is over; the app shell decides how to tell the user.
// A tiny event channel keeps lib/ free of UI imports.
type Listener = () => void;

const expiredListeners = new Set<Listener>();

export function onSessionExpired(listener: Listener): () => void {
  expiredListeners.add(listener);
  return () => expiredListeners.delete(listener);
}

export function notifySessionExpired(): void {
  for (const listener of expiredListeners) listener();
}
