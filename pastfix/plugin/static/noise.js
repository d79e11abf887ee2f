// recurring_errors' noise parameter takes one value, hide: a checkbox instead of a text box
// where "hide" had to be typed (the page over every index has the same checkbox).
(function () {
  var input = document.querySelector('form input[type="text"][name="noise"]');
  if (!input) return;
  var box = document.createElement("input");
  box.type = "checkbox";
  box.name = "noise";
  box.value = "hide";
  box.id = input.id;
  box.checked = input.value === "hide";
  box.className = "pf-noise";
  var label = document.createElement("label");
  label.htmlFor = box.id;
  label.className = "pf-inline-label";
  label.textContent = " hide Claude Code's own noise (rejected, interrupted or blocked calls)";
  // one element in the form's row (a grid cell on Datasette 1.0), the box beside its label
  var choice = document.createElement("span");
  choice.className = "pf-noise-choice";
  choice.append(box, label);
  input.replaceWith(choice);
})();
