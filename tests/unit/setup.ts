// jsdom has no IndexedDB; fake-indexeddb gives a spec-following one for unit tests.
import 'fake-indexeddb/auto';
