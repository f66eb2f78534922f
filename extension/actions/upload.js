// @ts-check
/** upload: a file (sent in base64) into a file input or drop zone. */
import { uploadFile } from "../content/dom_input.js";

/** @type {import("./page.js").PageAction} */
export const action = {
  name: "upload",
  needs: { page: { element: "required", enabled: true, hit: false } },
  run: (el, args) => ({ uploaded: uploadFile(/** @type {Element} */ (el), args.file) }),
};
