// Sharing and files for the Python UI (`window.gongzhuFiles`): the platform's promise-based APIs,
// wrapped so that they never reject (MicroPython 1.27 cannot catch a JavaScript exception).
//   share(text)            "shared" (Web Share API), "copied" (clipboard) or "failed"
//   download(name, text)   saves `text` as a file named `name` (application/json)
//   pick()                 the text of a file the player chooses (at most 256 kB; "" for an empty
//                          file), null when cancelled, false when it is too big or cannot be read
"use strict";
(() => {
  const MAX_FILE = 262144;
  window.gongzhuFiles = {
    async share(text) {
      try {
        if (navigator.share) {
          await navigator.share({ text });
          return "shared";
        }
      } catch (e) {
        // cancelled or refused: fall back to the clipboard
      }
      try {
        await navigator.clipboard.writeText(text);
        return "copied";
      } catch (e) {
        return "failed";
      }
    },
    download(name, text) {
      try {
        const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
        const link = document.createElement("a");
        link.href = url;
        link.download = name;
        document.body.appendChild(link);
        link.click();
        link.remove();
        setTimeout(() => URL.revokeObjectURL(url), 1000);
        return true;
      } catch (e) {
        return false;
      }
    },
    pick() {
      return new Promise((resolve) => {
        const input = document.createElement("input");
        input.type = "file";
        input.accept = "application/json,.json";
        input.setAttribute("data-testid", "import-file");
        input.hidden = true;
        input.addEventListener("change", (event) => {
          event.stopPropagation(); // (the page's own change listener is for its menus)
          const file = input.files && input.files[0];
          input.remove();
          if (!file) return resolve(null);
          if (file.size > MAX_FILE) return resolve(false);
          file.text().then(resolve, () => resolve(false));
        });
        input.addEventListener("cancel", () => {
          input.remove();
          resolve(null);
        });
        document.body.appendChild(input);
        input.click();
      });
    },
  };
})();
