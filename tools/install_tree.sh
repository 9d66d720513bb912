#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# install_tree.sh: what `make install` and `make uninstall` run (mk/install.mk).
#   install_tree.sh install PREFIX LIST   copies what LIST names under DESTDIR/PREFIX and
#                                         records each file and each directory it had to
#                                         create in PREFIX/share/xenon/install-manifest.txt
#   install_tree.sh uninstall PREFIX      removes exactly the files that manifest lists, the
#                                         manifest, then the directories install created,
#                                         deepest first, if they are empty
# LIST has one line per file, "KIND SOURCE DEST", DEST relative to PREFIX; KIND is
#   file       copied, mode 644
#   program    copied, mode 755
#   header     copied, mode 644, any #include "core/..." or "engine/..." rewritten as
#              "xenon/core/...", "xenon/engine/..." (the public headers in include/xenon/
#              already name each other so): -I PREFIX/include alone then finds every
#              installed header, and no user header named core/... or engine/... can shadow ours
#   pkgconfig  copied, mode 644, with @prefix@ replaced by PREFIX
#   symlink    DEST made a symbolic link to SOURCE (a name in DEST's directory)
# Installing over an earlier install first uninstalls it, so nothing stale is left behind.
set -euo pipefail

program=install_tree.sh
manifest_path=share/xenon/install-manifest.txt

fail() {  # fail MESSAGE [STATUS]: one-line error
  echo "$program: error: $1" >&2
  exit "${2:-1}"
}

[ $# -ge 2 ] || fail "usage: $program install PREFIX LIST | uninstall PREFIX" 2
action=$1
prefix=$2
case $prefix in
  /*) ;;
  *) fail "PREFIX must be an absolute path, got '$prefix'" 2 ;;
esac
prefix=${prefix%/}
root=${DESTDIR:-}$prefix
manifest=$root/$manifest_path

uninstall() {
  [ -f "$manifest" ] || fail "nothing installed under $root (no $manifest_path)"
  local kind path files=0 removed_dirs=0
  local dirs=()
  while read -r kind path; do
    case $kind in
      file) rm -f "$root/$path"; files=$((files + 1)) ;;
      dir) dirs+=("$path") ;;
      *) fail "$manifest: unexpected line '$kind $path'" ;;
    esac
  done < "$manifest"
  rm -f "$manifest"
  # Created parents were recorded before their children: remove in reverse.
  local i dir
  for ((i = ${#dirs[@]} - 1; i >= 0; i--)); do
    if [ "${dirs[i]}" = . ]; then dir=$root; else dir=$root/${dirs[i]}; fi
    if [ -d "$dir" ] && [ -z "$(ls -A "$dir")" ]; then
      rmdir "$dir"
      removed_dirs=$((removed_dirs + 1))
    fi
  done
  echo "$program: removed $files files and $removed_dirs directories under $root"
}

# What this install did, in order: "dir PATH" (created by it) and "file PATH" lines.
records=()
ensure_dir() {  # ensure_dir RELATIVE_DIR: creates it and any missing parent, records each
  local relative=$1 path=$root part
  if [ ! -d "$root" ]; then
    mkdir -p "$root"
    records+=("dir .")
  fi
  local IFS=/
  for part in $relative; do
    if [ -z "$part" ] || [ "$part" = . ]; then continue; fi
    path=$path/$part
    if [ ! -d "$path" ]; then
      mkdir "$path"
      records+=("dir ${path#"$root"/}")
    fi
  done
}

install_one() {  # install_one KIND SOURCE DEST
  local kind=$1 source=$2 dest=$3 target=$root/$3
  ensure_dir "$(dirname "$dest")"
  case $kind in
    file) install -m 644 "$source" "$target" ;;
    program) install -m 755 "$source" "$target" ;;
    header)
      sed -E 's@^([[:space:]]*#[[:space:]]*include[[:space:]]*")(core|engine)/@\1xenon/\2/@' \
        "$source" > "$target.tmp"
      chmod 644 "$target.tmp"
      mv "$target.tmp" "$target" ;;
    pkgconfig)
      local text
      text=$(< "$source")
      printf '%s\n' "${text//@prefix@/$prefix}" > "$target.tmp"
      chmod 644 "$target.tmp"
      mv "$target.tmp" "$target" ;;
    symlink) ln -sfn "$source" "$target" ;;
    *) fail "unknown kind '$kind' for $dest" ;;
  esac
  records+=("file $dest")
}

write_manifest() {  # also after a failure, so that what landed can be uninstalled
  [ ${#records[@]} -gt 0 ] && [ -d "$(dirname "$manifest")" ] || return 0
  printf '%s\n' "${records[@]}" > "$manifest"
}

install_all() {
  local list=$1
  [ -f "$list" ] || fail "no install list $list (run make install)"
  if [ -f "$manifest" ]; then uninstall > /dev/null; fi
  trap write_manifest EXIT
  ensure_dir "$(dirname "$manifest_path")"
  local kind source dest count=0
  while read -r kind source dest; do
    [ -n "$kind" ] || continue
    if [ "$kind" != symlink ] && [ ! -f "$source" ]; then fail "$source is missing (build it first)"; fi
    install_one "$kind" "$source" "$dest"
    count=$((count + 1))
  done < "$list"
  echo "$program: installed $count files under $root"
}

case $action in
  install)
    [ $# -eq 3 ] || fail "usage: $program install PREFIX LIST" 2
    install_all "$3" ;;
  uninstall)
    [ $# -eq 2 ] || fail "usage: $program uninstall PREFIX" 2
    uninstall ;;
  *) fail "unknown action '$action' (install or uninstall)" 2 ;;
esac
