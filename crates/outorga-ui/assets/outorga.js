// Masks and check digits while typing (CPF, CNPJ, plate). The server checks
// everything again; without this script the forms work the same.
(function () {
  "use strict";

  function cpfValid(d) {
    if (/^(\d)\1{10}$/.test(d)) return false;
    for (var n = 9; n < 11; n++) {
      var sum = 0;
      for (var i = 0; i < n; i++) sum += Number(d[i]) * (n + 1 - i);
      var digit = (sum * 10) % 11 % 10;
      if (digit !== Number(d[n])) return false;
    }
    return true;
  }

  function cnpjValid(d) {
    if (/^(\d)\1{13}$/.test(d)) return false;
    var weights = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
    for (var n = 12; n < 14; n++) {
      var sum = 0;
      for (var i = 0; i < n; i++) {
        sum += (d.charCodeAt(i) - 48) * weights[weights.length - n + i];
      }
      var rest = sum % 11;
      var digit = rest < 2 ? 0 : 11 - rest;
      if (digit !== Number(d[n])) return false;
    }
    return true;
  }

  function masked(d) {
    if (d.length <= 11) {
      return d.replace(/^(\d{3})(\d)/, "$1.$2").replace(/^(\d{3})\.(\d{3})(\d)/, "$1.$2.$3")
        .replace(/\.(\d{3})(\d{1,2})$/, ".$1-$2");
    }
    return d.replace(/^(\w{2})(\w{3})(\w{3})(\w{4})(\d{0,2})$/, "$1.$2.$3/$4-$5");
  }

  function feedback(input, text, bad) {
    var ids = (input.getAttribute("aria-describedby") || "").split(" ");
    var help = ids.length ? document.getElementById(ids[0]) : null;
    if (!help) return;
    if (!help.dataset.original) help.dataset.original = help.textContent;
    help.textContent = text || help.dataset.original;
    help.classList.toggle("invalido", !!bad);
    if (bad) input.setAttribute("aria-invalid", "true");
    else input.removeAttribute("aria-invalid");
  }

  function documentTyped(input) {
    var bare = input.value.toUpperCase().replace(/[^0-9A-Z]/g, "").slice(0, 14);
    input.value = masked(bare);
    if (bare.length === 11) {
      feedback(input, cpfValid(bare) ? "CPF válido." : "CPF inválido: confira os dígitos.", !cpfValid(bare));
    } else if (bare.length === 14) {
      feedback(input, cnpjValid(bare) ? "CNPJ válido." : "CNPJ inválido: confira os dígitos.", !cnpjValid(bare));
    } else {
      feedback(input, "", false);
    }
  }

  function plateTyped(input) {
    var bare = input.value.toUpperCase().replace(/[^0-9A-Z]/g, "").slice(0, 7);
    input.value = bare;
    if (bare.length === 7) {
      var ok = /^[A-Z]{3}[0-9][0-9A-Z][0-9]{2}$/.test(bare);
      feedback(input, ok ? "" : "Placa inválida: use ABC1234 ou ABC1D23.", !ok);
    } else {
      feedback(input, "", false);
    }
  }

  document.addEventListener("input", function (event) {
    var input = event.target;
    if (!input.dataset) return;
    if (input.dataset.mascara === "documento") documentTyped(input);
    if (input.dataset.mascara === "placa") plateTyped(input);
  });

  // A button that prints the page (a receipt).
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-imprimir]");
    if (button) window.print();
  });
})();
