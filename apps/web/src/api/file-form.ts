/** A form of one file under `file`, with its name: how the API takes an image to store. */
export function fileForm(file: File): FormData {
  const form = new FormData();
  form.append('file', file, file.name);
  return form;
}
