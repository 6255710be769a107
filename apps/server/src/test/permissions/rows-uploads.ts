import { newUploadHeaders, ownersUpload, tus } from './arrange.js';
import { OWNER_ONLY_THING, type Row, SIGNED_IN } from './cells.js';

/** Resumable uploads (tus), over real connections. */
export const UPLOAD_ROWS: Row[] = [
  {
    route: 'POST /api/v1/uploads',
    cells: SIGNED_IN,
    run: (w, as) => tus(w, as, 'POST', '/uploads', newUploadHeaders),
  },
  {
    route: 'HEAD /api/v1/uploads/:id',
    on: "the owner's upload",
    cells: OWNER_ONLY_THING,
    run: async (w, as) => tus(w, as, 'HEAD', `/uploads/${await ownersUpload(w)}`),
  },
  {
    route: 'PATCH /api/v1/uploads/:id',
    on: "the owner's upload",
    cells: OWNER_ONLY_THING,
    run: async (w, as) =>
      tus(
        w,
        as,
        'PATCH',
        `/uploads/${await ownersUpload(w)}`,
        { 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
        'hello',
      ),
  },
  {
    route: 'DELETE /api/v1/uploads/:id',
    on: "the owner's upload",
    cells: OWNER_ONLY_THING,
    run: async (w, as) => tus(w, as, 'DELETE', `/uploads/${await ownersUpload(w)}`),
  },
];
