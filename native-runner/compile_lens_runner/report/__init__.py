"""report.json: the document and its writes, its JSON Schema (the contract with TypeScript), and the verdicts."""
