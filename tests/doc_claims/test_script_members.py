"""What a JavaScript or TypeScript class or interface declares besides its methods with bodies.

Each test builds a small repository shaped like axios's and koa's and judges it as `sextant
docs-check` does: an interface's property signatures (`AxiosRequestConfig.timeout`), a declared
class's bodiless methods and read-only fields in `index.d.ts`, and a JavaScript class's fields,
placed at their file lines even after a method whose body and comments the class's outline leaves out.
"""

from __future__ import annotations

from sextant.doc_claims import ClaimFinding, check_repository

from ..conftest import GitRepo


def findings_by_ref(git_repo: GitRepo) -> dict[str, ClaimFinding]:
    return {f.ref: f for f in check_repository(git_repo.root).findings if f.kind == "symbol"}


INDEX_D_TS = """\
export interface AxiosRequestConfig<D = any> {
  url?: string;
  method?: Method | string;
  timeout?: number;
  onUploadProgress?: (progressEvent: AxiosProgressEvent) => void;
  [key: string]: any;
}

export class AxiosHeaders {
  constructor(headers?: RawAxiosHeaders | AxiosHeaders);

  set(headerName?: string, value?: AxiosHeaderValue): AxiosHeaders;
  readonly size: number;
  static from(thing?: AxiosHeaders): AxiosHeaders;
}
"""
APPLICATION_JS = """\
'use strict';

class Application extends Emitter {
  proxy = false;

  /**
   * Listen on a port.
   */
  listen(...args) {
    const server = http.createServer(this.callback());
    return server.listen(...args);
  }

  static defaultMaxListeners = 10;
}

module.exports = Application;
"""
PACKAGE_JSON = '{"name": "acme-http", "main": "lib/application.js", "types": "index.d.ts"}\n'
README = """\
# acme-http

Set `AxiosRequestConfig.timeout` and `AxiosRequestConfig.onUploadProgress`; `AxiosRequestConfig.retries`
is not an option. Headers: `AxiosHeaders.set`, `AxiosHeaders.size` and `AxiosHeaders.from`.
An app trusts proxies with `Application.proxy`; `Application.defaultMaxListeners` caps its listeners.
"""


def test_interface_properties_declared_methods_and_class_fields_are_members(git_repo: GitRepo) -> None:
    git_repo.commit_files(
        "Add the client",
        {
            "package.json": PACKAGE_JSON,
            "index.d.ts": INDEX_D_TS,
            "lib/application.js": APPLICATION_JS,
            "README.md": README,
        },
    )

    found = findings_by_ref(git_repo)

    timeout = found["AxiosRequestConfig.timeout"]
    assert timeout.status == "verified", timeout.evidence
    assert "index.d.ts:4 (field AxiosRequestConfig.timeout)" in timeout.evidence
    assert found["AxiosRequestConfig.onUploadProgress"].status == "verified"
    for name in ("AxiosHeaders.set", "AxiosHeaders.size", "AxiosHeaders.from"):
        assert found[name].status == "verified", (name, found[name].evidence)
    assert "index.d.ts:13 (field AxiosHeaders.size)" in found["AxiosHeaders.size"].evidence
    assert "lib/application.js:4 (field Application.proxy)" in found["Application.proxy"].evidence
    # After `listen`, whose comment and body the class's outline leaves out: still its own line.
    most = found["Application.defaultMaxListeners"]
    assert most.status == "verified", most.evidence
    assert "lib/application.js:14 (field Application.defaultMaxListeners)" in most.evidence
    # A property the interface does not declare is still a finding.
    assert found["AxiosRequestConfig.retries"].status == "contradicted", found["AxiosRequestConfig.retries"].evidence
