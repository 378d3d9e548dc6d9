// s3rver 3.7 removes a key's folder once its last object is deleted, and writes an object by
// creating its folder and then opening the file with no error listener. A put that meets the delete
// of its folder's last object in between (a worker removes the last upscale input while an API
// replica stores the next) threw ENOENT out of the test process. S3 has no folders to lose: here a
// delete removes the object's files and leaves the folders. Tests only.
import { unlink } from 'node:fs/promises';

/** What is used of s3rver's filesystem store. */
interface S3rverStore {
  getResourcePath(bucket: string, key: string | undefined, resource: string): string;
  deleteObject(bucket: string, key: string): Promise<void>;
}

export function keepFoldersOnDelete(server: { store: S3rverStore }): void {
  const store = server.store;
  store.deleteObject = async (bucket, key) => {
    await Promise.all(
      ['object', 'object.md5', 'metadata.json'].map((resource) =>
        unlink(store.getResourcePath(bucket, key, resource)).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'ENOENT') throw error;
        }),
      ),
    );
  };
}
