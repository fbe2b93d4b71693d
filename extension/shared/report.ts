// report.json as TypeScript reads it. Its types are generated from the JSON Schema in native-runner/ (reportTypes.ts,
// scripts/reportTypes.ts), the one definition of the report; checkReport() checks a parsed file against that schema.
import Ajv2020 from 'ajv/dist/2020.js';
import schema from '../../native-runner/compile_lens_runner/report/report.schema.json';
import type { Report } from './reportTypes.ts';

export type * from './reportTypes.ts';

export const SUPPORTED_SCHEMA_MAJOR = 1;

const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);

export type ReportCheck = { ok: true; report: Report } | { ok: false; problems: string[] };

/** Checks parsed JSON against the report schema; problems name the JSON path of each violation. */
export function checkReport(value: unknown): ReportCheck {
  const version = (value as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (typeof version === 'string' && !version.startsWith(`${SUPPORTED_SCHEMA_MAJOR}.`)) {
    return {
      ok: false,
      problems: [
        `report schema ${version} is not supported by this version (expects ${SUPPORTED_SCHEMA_MAJOR}.x): update Compile Lens`,
      ],
    };
  }
  if (validate(value)) return { ok: true, report: value as unknown as Report };
  const problems = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
  return { ok: false, problems };
}
