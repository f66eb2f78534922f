// @ts-check
/** upload: a file (sent in base64) into a file input or drop zone. */
import { actionError, uploadFile } from "../content/dom_input.js";

/** @type {import("./page.js").PageAction} */
export const action = {
  name: "upload",
  needs: { page: { element: "required", enabled: true, hit: false } },
  run: (el, args) => {
    if (!args.file) throw actionError("unsupported", "upload needs the file's content (`file`): the host reads the resource named and sends it.");
    return { uploaded: uploadFile(/** @type {Element} */ (el), args.file) };
  },
};
