# SPDX-License-Identifier: BSD-3-Clause
# Bash completion for kinetree-cli: commands, each command's options (as its --help lists them),
# solver and integrator names, and file names where a command takes a file. Installed as
# share/bash-completion/completions/kinetree-cli; tests/cli/test_cli.cpp checks it against --help.

_kinetree_cli_options() {
  case "$1" in
    validate) echo "--package-path --help --version" ;;
    info) echo "--package-path --help --version" ;;
    simulate) echo "--solver --integrator --step --tolerance --duration --motion --cutoff --events --output --signals --every --package-path --help --version" ;;
    peaks) echo "--solver --integrator --step --tolerance --duration --motion --cutoff --events --csv --output --cases --case-components --package-path --help --version" ;;
    spectrum) echo "--signals --segment --detrend --output --solver --integrator --step --tolerance --duration --motion --cutoff --events --package-path --help --version" ;;
    fatigue) echo "--signals --wohler --neq --csv --output --cycles --histogram --bins --solver --integrator --step --tolerance --duration --motion --cutoff --events --package-path --help --version" ;;
    compare) echo "--solvers --duration --step --integrator --tolerance --trajectory --digits --motion --cutoff --package-path --help --version" ;;
    bench) echo "--model --chain --cardan-chain --binary-tree --solvers --kinds --repeat --json --simulate --no-loads --package-path --help --version" ;;
    import) echo "--output --floating --merge-fixed --strict --density --package-path --help --version" ;;
    export) echo "--urdf --output --help --version" ;;
    sweep) echo "--output --processes --dask --batch-size --max-cases --help --version" ;;
  esac
}

_kinetree_cli() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=""
  ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
  local commands="validate info simulate peaks spectrum fatigue compare bench import export sweep help"
  local solvers="aba crba cfa-dense cfa-oddeven cfa-tree poisson-sweep poisson-ldl"
  local integrators="euler rk4 dopri5"
  COMPREPLY=()
  if ((COMP_CWORD == 1)); then
    mapfile -t COMPREPLY < <(compgen -W "$commands --help --version" -- "$cur")
    return
  fi
  local command=${COMP_WORDS[1]}
  case "$prev" in
    --solver)
      mapfile -t COMPREPLY < <(compgen -W "$solvers" -- "$cur")
      return ;;
    --solvers)  # a comma-separated list: complete its last item
      local head=${cur%"${cur##*,}"}
      mapfile -t COMPREPLY < <(compgen -P "$head" -W "$solvers" -- "${cur##*,}")
      compopt -o nospace 2>/dev/null
      return ;;
    --kinds)  # a comma-separated list: complete its last item
      local head=${cur%"${cur##*,}"}
      mapfile -t COMPREPLY < <(compgen -P "$head" -W "forward inverse hybrid" -- "${cur##*,}")
      compopt -o nospace 2>/dev/null
      return ;;
    --integrator)
      mapfile -t COMPREPLY < <(compgen -W "$integrators" -- "$cur")
      return ;;
    --detrend)
      mapfile -t COMPREPLY < <(compgen -W "none mean linear" -- "$cur")
      return ;;
    -o | --output | --model | --motion | --events | --cycles | --histogram)
      compopt -o filenames 2>/dev/null
      mapfile -t COMPREPLY < <(compgen -f -- "$cur")
      return ;;
    --package-path)
      compopt -o filenames 2>/dev/null
      mapfile -t COMPREPLY < <(compgen -d -- "$cur")
      return ;;
    --step | --tolerance | --duration | --cutoff | --signals | --every | --chain | --cardan-chain | --binary-tree | \
      --repeat | --processes | --dask | --batch-size | --max-cases | --segment | --wohler | --neq | --bins | --density)
      return ;;  # a value the user types
  esac
  if [[ $command == help ]]; then
    ((COMP_CWORD == 2)) && mapfile -t COMPREPLY < <(compgen -W "$commands" -- "$cur")
    return
  fi
  if [[ $cur == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$(_kinetree_cli_options "$command")" -- "$cur")
    return
  fi
  # operands: model files (every command that reads a model also reads a robot as import does; a
  # robot for import, a sweep file for sweep), and directories on the way to them
  [[ $command == bench ]] && return
  local suffixes="yaml yml urdf xml"
  [[ $command == import ]] && suffixes="urdf xml"
  [[ $command == sweep ]] && suffixes="yaml yml"
  compopt -o filenames 2>/dev/null
  mapfile -t COMPREPLY < <(
    compgen -d -- "$cur"
    for suffix in $suffixes; do compgen -f -X "!*.$suffix" -- "$cur"; done
  )
}

complete -F _kinetree_cli kinetree-cli
