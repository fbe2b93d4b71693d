#!/usr/bin/env bash
# Installs code-server 4.100.3 (VS Code 1.100.3) offline from the npm registry, cached outside the repo.
# Follows ../shared/recipes/code-server.md (recipe A). Prints the cache root on stdout.
set -euo pipefail
VERSION=4.100.3
ROOT=${CODE_SERVER_CACHE:-$HOME/.cache/compile-lens/code-server-$VERSION}
CS="$ROOT/node_modules/code-server"
if [ -f "$ROOT/.complete" ]; then echo "$ROOT"; exit 0; fi
export npm_config_nodedir=${npm_config_nodedir:-/usr}   # native addons build against the local Node headers
rm -rf "$ROOT" && mkdir -p "$ROOT" && cd "$ROOT"
{
  npm init -y >/dev/null
  # Its postinstall would download ripgrep from GitHub: install without scripts and do its steps by hand.
  npm install --ignore-scripts --no-audit --no-fund "code-server@$VERSION"
  cd "$CS/lib/vscode"
  npm install --ignore-scripts --omit=dev --no-audit --no-fund
  mkdir -p node_modules/@vscode/ripgrep/bin && cp "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
  npm_config_yes=true JOBS=max npm rebuild
  ln -sfn node_modules node_modules.asar
  (cd bin/remote-cli && ln -sf code-linux.sh code-server)
  (cd bin/helpers && ln -sf browser-linux.sh browser.sh)
  (cd extensions && npm install --omit=dev --no-audit --no-fund)
  cd "$ROOT" && npm rebuild argon2
} >&2
touch "$ROOT/.complete"
echo "$ROOT"
