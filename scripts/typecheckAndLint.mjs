// `tsc -p . --noEmit` and `eslint --max-warnings 0 .` in one process (`npm run lint`): typescript-eslint's
// type-aware rules are given the program tsc's check built, so the project is type-checked once, not twice
// (docs/BENCHMARKS.md#test-time). The same tsconfig, the same eslint.config.mjs, the same files.
import ts from 'typescript';
import { ESLint } from 'eslint';

/** @type {ts.Diagnostic[]} */
const configErrors = [];
const config = ts.getParsedCommandLineOfConfigFile(
  'tsconfig.json',
  {},
  { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (diagnostic) => configErrors.push(diagnostic) },
);
if (!config) {
  process.stdout.write(ts.formatDiagnostics(configErrors, formatHost()));
  process.exit(1);
}
const program = ts.createProgram({
  rootNames: config.fileNames,
  options: config.options,
  configFileParsingDiagnostics: config.errors,
});
const typeErrors = ts.getPreEmitDiagnostics(program);
if (typeErrors.length > 0)
  process.stdout.write(
    process.stdout.isTTY
      ? ts.formatDiagnosticsWithColorAndContext(typeErrors, formatHost())
      : ts.formatDiagnostics(typeErrors, formatHost()),
  );

// a file outside the program is a parsing error here, as it would be for tsc: tsconfig.json includes every linted file
const eslint = new ESLint({
  overrideConfig: { languageOptions: { parserOptions: { programs: [program], projectService: false } } },
});
const results = await eslint.lintFiles(['.']);
const formatter = await eslint.loadFormatter('stylish');
process.stdout.write(await formatter.format(results));
const problems = results.reduce((sum, result) => sum + result.errorCount + result.warningCount, 0);
process.exitCode = typeErrors.length > 0 || problems > 0 ? 1 : 0;

/** @returns {ts.FormatDiagnosticsHost} */
function formatHost() {
  return {
    getCanonicalFileName: (name) => name,
    getCurrentDirectory: () => ts.sys.getCurrentDirectory(),
    getNewLine: () => ts.sys.newLine,
  };
}
