"""Task-runner commands (`grunt build`, `npm run docs`, `make docs`) against the tasks the repository defines."""

from __future__ import annotations

from sextant.doc_claims import check_repository
from sextant.doc_claims.judging.finding import ClaimFinding

from ..conftest import GitRepo

GRUNTFILE = """\
module.exports = function (grunt) {
  grunt.initConfig({ clean: { dist: 'dist' } });
  grunt.loadNpmTasks('grunt-contrib-clean');
  grunt.registerTask('test', 'Run the tests', ['clean']);
  grunt.registerTask('build', 'Bundle the source', ['clean']);
};
"""
PACKAGE_BEFORE = """\
{
  "name": "acme",
  "version": "1.0.0",
  "scripts": {
    "test": "mocha",
    "serveDocs": "jekyll serve"
  },
  "devDependencies": {"mocha": "10.0.0"}
}
"""
PACKAGE_AFTER = PACKAGE_BEFORE.replace(',\n    "serveDocs": "jekyll serve"', "")
MAKEFILE_BEFORE = ".PHONY: docs check\n\ndocs:\n\tjekyll build\n\ncheck:\n\tnpm test\n"
MAKEFILE_AFTER = ".PHONY: check\n\ncheck:\n\tnpm test\n"
INDEX_JS = "module.exports = function acme() { return 1; };\n"
CONTRIBUTING = """\
# Contributing

- `grunt build` bundles the source
- `grunt test:unit` runs the tests

To serve the docs:

```sh
npm run serveDocs
npm run test
make docs
make check
make install
gulp lint
npm run lint
```
"""


def _commands(findings: list[ClaimFinding]) -> dict[tuple[int, str], ClaimFinding]:
    return {(f.line, f.ref): f for f in findings if f.kind == "cli"}


def test_a_task_the_repository_removed_or_whose_task_file_it_deleted_is_contradicted(git_repo: GitRepo) -> None:
    git_repo.write("index.js", INDEX_JS)
    git_repo.write("Gruntfile.js", GRUNTFILE)
    git_repo.write("package.json", PACKAGE_BEFORE)
    git_repo.write("Makefile", MAKEFILE_BEFORE)
    git_repo.write("CONTRIBUTING.md", CONTRIBUTING)
    git_repo.commit("grunt and scripts", date="2022-01-10T12:00:00+00:00")
    git_repo.remove("Gruntfile.js")
    git_repo.write("package.json", PACKAGE_AFTER)
    git_repo.write("Makefile", MAKEFILE_AFTER)
    removal = git_repo.commit("Bundle with rollup, drop grunt", date="2023-06-18T12:00:00+00:00")

    commands = _commands(check_repository(git_repo.root).findings)

    grunt = commands[(3, "grunt build")]
    assert grunt.status == "contradicted", grunt
    assert f"Gruntfile.js was deleted by {removal[:7]}" in grunt.evidence
    assert "no Gruntfile now" in grunt.evidence
    assert commands[(4, "grunt test")].status == "contradicted"  # `test:unit` runs the task `test`
    script = commands[(9, "npm run serveDocs")]
    assert script.status == "contradicted", script
    assert f"removed by {removal[:7]}" in script.evidence
    assert "no serveDocs in package.json now" in script.evidence
    assert commands[(10, "npm run test")].status == "verified"
    assert commands[(11, "make docs")].status == "contradicted"
    assert commands[(12, "make check")].status == "verified"
    assert commands[(13, "make install")].status == "unverifiable"  # never a target here: another project's?
    assert commands[(14, "gulp lint")].status == "unverifiable"  # no gulpfile, ever
    assert commands[(15, "npm run lint")].status == "unverifiable"  # never a script of ours


def test_without_history_a_missing_task_is_unverifiable_and_a_catch_all_rule_any_target(git_repo: GitRepo) -> None:
    git_repo.write("index.js", INDEX_JS)
    git_repo.write("package.json", PACKAGE_AFTER)
    git_repo.write("docs/Makefile", "SPHINXBUILD = sphinx-build\n\n%: Makefile\n\t$(SPHINXBUILD) -M $@ . _build\n")
    git_repo.write("docs/Makefile.old", "")
    git_repo.write("README.md", "# Acme\n\nRun `npm run serveDocs`, then `make html` in `docs/`.\n")
    head = git_repo.commit("docs")

    commands = _commands(check_repository(git_repo.root, commit=head, use_history=False).findings)

    assert commands[(3, "npm run serveDocs")].status == "unverifiable"
    assert "no npm script serveDocs in package.json" in commands[(3, "npm run serveDocs")].evidence
    assert commands[(3, "make html")].status == "unverifiable"
    assert "docs/Makefile may define any make target" in commands[(3, "make html")].evidence


def test_a_removed_target_is_found_in_a_folder_with_an_odd_name_whatever_the_diff_config(git_repo: GitRepo) -> None:
    # A non-ASCII folder is quoted in git's patch headers, and the repository's own diff config
    # (no a/ b/ prefixes, colour) must not change what the patch log says.
    git_repo.git("config", "diff.noprefix", "true")
    git_repo.git("config", "color.diff", "always")
    git_repo.write("index.js", INDEX_JS)
    git_repo.write("guía de uso/Makefile", MAKEFILE_BEFORE)
    git_repo.write("README.md", "# Acme\n\nRun `make docs` in the guide's folder.\n")
    git_repo.commit("docs target", date="2022-01-10T12:00:00+00:00")
    git_repo.write("guía de uso/Makefile", MAKEFILE_AFTER)
    removal = git_repo.commit("Drop the docs target", date="2023-06-18T12:00:00+00:00")

    target = _commands(check_repository(git_repo.root).findings)[(3, "make docs")]

    assert target.status == "contradicted", target
    assert f"defined in guía de uso/Makefile until 2023-06-18; removed by {removal[:7]}" in target.evidence


def test_a_fixtures_task_file_neither_defines_the_repositorys_task_nor_hides_its_removal(git_repo: GitRepo) -> None:
    # The history already reads a vendored or fixture task file as another project's; the head must too.
    git_repo.write("index.js", INDEX_JS)
    git_repo.write("Makefile", MAKEFILE_BEFORE)
    git_repo.write("tests/fixtures/app/Makefile", MAKEFILE_BEFORE)
    git_repo.write("README.md", "# Acme\n\nRun `make docs`.\n")
    git_repo.commit("docs target", date="2022-01-10T12:00:00+00:00")
    git_repo.write("Makefile", MAKEFILE_AFTER)
    removal = git_repo.commit("Drop the docs target", date="2023-06-18T12:00:00+00:00")

    target = _commands(check_repository(git_repo.root).findings)[(3, "make docs")]

    assert target.status == "contradicted", target
    assert f"removed by {removal[:7]}" in target.evidence
