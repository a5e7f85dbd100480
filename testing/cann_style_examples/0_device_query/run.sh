#!/bin/bash
set -euo pipefail
cd "$(dirname "$0")"
bash ../run_one.sh
soc=$(awk -F': ' '/^SoC name:/ {print $2; exit}' output_msg.txt)
compatible=$(awk -F': ' '/^Arch compatible:/ {print $2; exit}' output_msg.txt)
if [[ -n "${soc}" && "${soc}" == "${SOC_VERSION:-}" && "${compatible}" == 1 ]] &&
  grep -q '^Device query: done$' output_msg.txt; then
  echo "[SUCCESS] the runtime reports SoC ${soc}, the SOC_VERSION the environment exports"
else
  echo "[FAILURE] SoC '${soc}' (compatible=${compatible}), SOC_VERSION '${SOC_VERSION:-}'"
  exit 1
fi
