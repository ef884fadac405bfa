#!/usr/bin/env bash
# Extract every translatable string of the terminal game and the web app, then update the five
# catalogues (en ru de uk fr). New messages arrive untranslated: translate them in each
# src/sequence/i18n/locales/<lang>/LC_MESSAGES/messages.po (tests/i18n fails until every
# catalogue is complete). The .po files are read at runtime: there is no compile step.
set -euo pipefail
cd "$(dirname "$0")/.."
PYBABEL="${PYBABEL:-.venv/bin/pybabel}"
I18N=src/sequence/i18n
POT="$I18N/locales/messages.pot"

"$PYBABEL" extract --no-location --sort-output --width 100 \
    -F "$I18N/babel.cfg" \
    -k N_ -k Nn_:1,2 -k _m -k t -k tn:1,2 \
    --project=sequence-games \
    -o "$POT" src/sequence

for lang in en ru de uk fr; do
    po="$I18N/locales/$lang/LC_MESSAGES/messages.po"
    if [ -f "$po" ]; then
        "$PYBABEL" update --no-fuzzy-matching --ignore-obsolete --width 100 \
            -l "$lang" -i "$POT" -o "$po"
    else
        "$PYBABEL" init --width 100 -l "$lang" -i "$POT" -o "$po"
    fi
done
# A catalogue whose only change is the extraction date is left as it was, so a run that finds
# nothing new changes no file.
for file in "$POT" "$I18N"/locales/*/LC_MESSAGES/messages.po; do
    if git diff --quiet -I '^"POT-Creation-Date: ' -- "$file" 2>/dev/null; then
        git checkout --quiet -- "$file" 2>/dev/null || true
    fi
done
PYTHON="${PYTHON:-.venv/bin/python}"
PYTHONPATH=src "$PYTHON" -m sequence.i18n.check
