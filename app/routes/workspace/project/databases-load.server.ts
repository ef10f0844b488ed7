/**
 * The load page's posts (databases/flat-file/update-source): a file streamed through to be previewed
 * or loaded at once, or the form under a preview that loads the files already uploaded.
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { redirect } from "react-router";
import { stagedLoadSchema } from "../../../../contracts/loads";
import { MAX_UPLOAD_BYTES_DEFAULT } from "../../../../contracts/values/loads";
import { companyHref } from "~/lib/company-href";
import { redirectWithFlash } from "~/lib/flash.server";
import { invalid, readFormData, refusedByService, submitUpload } from "~/lib/forms.server";
import { SAVE_PARAMETERS } from "~/components/projects/flat-file-parameters-form";
import { saveFlatFileParameters } from "../flat-file-parameters.server";
import type { checkWorkspace } from "../workspace.server";

type Scope = Awaited<ReturnType<typeof checkWorkspace>>;

/** `preview`: the Preview button posted the form (to its own formaction): the files are uploaded and previewed, not loaded. */
export async function loadPageAction(request: Request, { project, companyId, api, paths }: Scope, preview: boolean) {
  const started = (load: { id: string; fileName: string; tableName: string }) =>
    redirectWithFlash(companyHref(paths.databases.entry(project.id, load.id), companyId), `Loading ${load.fileName} into ${load.tableName}.`);

  if (/^multipart\/form-data/i.test(request.headers.get("content-type") ?? "")) {
    const maxGb = MAX_UPLOAD_BYTES_DEFAULT / 1024 ** 3;
    const limit = {
      maxBytes: MAX_UPLOAD_BYTES_DEFAULT + 1024 * 1024,
      tooLargeMessage: `The file is larger than ${maxGb} GB, the most a load takes`,
      noFileMessage: "Choose a file to load",
    };
    if (preview) {
      const { value, reply } = await submitUpload(request, limit, (body, contentType) => api.loads.stage(body, contentType));
      if (reply) return reply;
      // The preview is the page's, by its upload's id: a reload or a shared link shows it again.
      return redirect(companyHref(paths.databases.load(project.id), companyId, { upload: value.uploadId }));
    }
    const { value, reply } = await submitUpload(request, limit, (body, contentType) => api.loads.start(body, contentType));
    return reply ?? started(value.load);
  }

  // Plain form posts: the parameters form, or the load form under a preview.
  const formData = await readFormData(request);
  if (formData.get("intent") === SAVE_PARAMETERS) return saveFlatFileParameters(formData, { project, api, companyId }, paths.databases.load(project.id));
  const submission = parseWithZod(formData, { schema: stagedLoadSchema });
  if (submission.status !== "success") return invalid(submission);
  try {
    const { load } = await api.loads.startStaged(submission.value);
    return started(load);
  } catch (err) {
    return refusedByService(submission, err);
  }
}
