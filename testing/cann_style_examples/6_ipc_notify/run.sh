#!/bin/bash
set -euo pipefail
cd "$(dirname "$0")"
bash ../run_pair.sh withpid withoutpid
