// The player's language, one rule for the pages that choose it before any Python runs: the loading
// screen's failure texts (boot.js) and the rules page (rules.html, tools/rules_page.py). The UI's
// choice is ui/view/i18n.py's choose_language, the same rule in Python (tests/test_language_choice.py holds
// them equal): ?lang=, then the choice saved from a menu, then the browser's preferences, then English.
"use strict";
window.gongzhuLanguage = function (languages) {
  const known = (code) => languages.indexOf(code) >= 0;
  let saved = null;
  try {
    saved = localStorage.getItem(window.gongzhuLanguage.KEY);
  } catch {
    // storage disabled: no saved choice
  }
  const forced = new URLSearchParams(location.search).get("lang");
  if (known(forced)) return forced;
  if (known(saved)) return saved;
  for (const tag of navigator.languages || []) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (known(base)) return base;
  }
  return "en";
};
// The localStorage key of the language picked in a menu (ui/view/i18n.py's STORAGE_KEY).
window.gongzhuLanguage.KEY = "gongzhu.lang";
// Each language's <html lang> tag (ui/view/i18n.py's HTML_LANG), so a page says what the UI says.
window.gongzhuLanguage.HTML_LANG = { en: "en", zh: "zh-Hans", fr: "fr", pt: "pt-BR", uk: "uk" };
