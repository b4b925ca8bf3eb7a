# bash completion for idlekit (installed by `cmake --install` as
# share/bash-completion/completions/idlekit).
#
# Commands come from `idlekit --help`, a command's options from `idlekit CMD --help`, so the
# completion follows the help texts and cannot fall behind them; governor, platform,
# scenario and release values from the built-in lists (platform list, sim --list, kernel
# list); --set and --vary keys from sim --print-config, with the values of the keys that
# take a name.

_idlekit_commands() {
	"$1" --help 2>/dev/null | awk '/^Commands:/ { on = 1; next }
		on && /^  [a-z]/ { print $1 }
		on && /^$/ { on = 0 }' | sort -u
}

_idlekit_options() { # IDLEKIT CMD [SUB]
	"$1" $2 ${3:+$3} --help 2>/dev/null | grep -oE '(^|[ ,])--?[a-zA-Z][a-zA-Z0-9-]*' |
		sed 's/^[ ,]//' | sort -u
}

_idlekit_keys() { # IDLEKIT: SECTION.KEY of every key sim --print-config prints
	"$1" sim --print-config 2>/dev/null | awk '/^\[/ { gsub(/[][]/, ""); sec = $0; next }
		/^[a-z_0-9]+ = / && sec != "origin" { print sec "." $1 }' | sort -u
}

_idlekit_values() { # IDLEKIT SECTION.KEY: the names the key takes, when it takes names
	case $2 in
	cpuidle.governor) echo "menu teo ladder haltpoll" ;;
	scenario.platform) "$1" platform list 2>/dev/null | awk '{ print $1 }' ;;
	kernel.version) "$1" kernel list 2>/dev/null | awk 'NR > 1 { print $1 }' ;;
	cpuidle.driver) echo "table acpi_idle intel_idle powernv_idle haltpoll none auto" ;;
	workload.*) # the values column of the key's row in workload keys, when it is a list
		"$1" workload keys 2>/dev/null | awk -F'|' -v k="\`${2#workload.}\`" '
			{ gsub(/^ +| +$/, "", $2); gsub(/^ +| +$/, "", $5) }
			$2 == k && $5 !~ /[.][.]/ { gsub(/,/, " ", $5); print $5 }' ;;
	esac
}

_idlekit() {
	local cur prev bin cmd cmdi sub i
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD - 1]}
	bin=${COMP_WORDS[0]}
	COMPREPLY=()

	# the command: the first word after idlekit that is not an option
	cmd=""
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; cmdi=$i; break ;;
		esac
	done
	if [ -z "$cmd" ]; then
		COMPREPLY=($(compgen -W "$(_idlekit_commands "$bin") --help --version" -- "$cur"))
		return 0
	fi
	# after '--' comes a command of the user's
	for ((i = 1; i < COMP_CWORD; i++)); do
		if [ "${COMP_WORDS[i]}" = -- ]; then
			COMPREPLY=($(compgen -c -- "$cur"))
			return 0
		fi
	done

	case $cmd in
	help)
		COMPREPLY=($(compgen -W "$(_idlekit_commands "$bin")" -- "$cur"))
		return 0
		;;
	platform)
		sub=${COMP_WORDS[cmdi + 1]}
		if [ $((cmdi + 1)) -eq "$COMP_CWORD" ]; then
			COMPREPLY=($(compgen -W "list show import calibrate" -- "$cur"))
			return 0
		fi
		if [ "$sub" = show ] && [[ $cur != -* ]]; then
			COMPREPLY=($(compgen -W "$("$bin" platform list 2>/dev/null | awk '{ print $1 }')" -- "$cur")
				$(compgen -f -X '!*.ini' -- "$cur") $(compgen -d -- "$cur"))
			return 0
		fi
		[ "$sub" = import ] && cmd="platform import"
		;;
	esac

	# --set/--vary SECTION.KEY=VALUE: bash splits the word at '=' (COMP_WORDBREAKS)
	if [ "$prev" = = ] && [ "$COMP_CWORD" -ge 3 ]; then
		case ${COMP_WORDS[COMP_CWORD - 3]} in
		--set | --vary)
			COMPREPLY=($(compgen -W "$(_idlekit_values "$bin" "${COMP_WORDS[COMP_CWORD - 2]}")" -- "$cur"))
			return 0
			;;
		esac
	fi
	if [ "$cmd" = sim ] && [ "$cmdi" -eq $((COMP_CWORD - 1)) ] && [[ $cur != -* ]]; then
		COMPREPLY=($(compgen -W "$("$bin" sim --list 2>/dev/null | awk '{ print $1 }')" -- "$cur")
			$(compgen -f -X '!*.ini' -- "$cur") $(compgen -d -- "$cur"))
		return 0
	fi
	if [ "$cmd" = kernel ] && [ "${COMP_WORDS[cmdi + 1]}" = show ] && [ $((cmdi + 2)) -eq "$COMP_CWORD" ]; then
		COMPREPLY=($(compgen -W "$("$bin" kernel list 2>/dev/null | awk 'NR > 1 { print $1 }')" -- "$cur"))
		return 0
	fi
	if [ "$cmd" = kernel ] && [ $((cmdi + 1)) -eq "$COMP_CWORD" ]; then
		COMPREPLY=($(compgen -W "list show" -- "$cur"))
		return 0
	fi

	case $prev in
	--set | --vary)
		COMPREPLY=($(compgen -W "$(_idlekit_keys "$bin")" -S = -- "$cur"))
		compopt -o nospace 2>/dev/null
		return 0
		;;
	-g | --governor)
		COMPREPLY=($(compgen -W "menu teo ladder haltpoll" -- "$cur"))
		return 0
		;;
	-p | --platform)
		COMPREPLY=($(compgen -W "$("$bin" platform list 2>/dev/null | awk '{ print $1 }') trace" -- "$cur")
			$(compgen -f -X '!*.ini' -- "$cur") $(compgen -d -- "$cur"))
		return 0
		;;
	-o | --output | --html | --input | --sysfs-dump | --dump)
		COMPREPLY=($(compgen -f -- "$cur"))
		return 0
		;;
	--sysfs-root)
		COMPREPLY=($(compgen -d -- "$cur"))
		return 0
		;;
	esac

	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_idlekit_options "$bin" $cmd)" -- "$cur"))
		return 0
	fi
	COMPREPLY=($(compgen -f -- "$cur"))
	return 0
}

complete -F _idlekit idlekit
