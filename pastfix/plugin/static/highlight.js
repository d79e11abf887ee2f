// Marks the searched text (the `pattern` parameter) in the excerpts of the tool output
// searches, case-insensitively, as SQLite's LIKE matched it.
(function () {
  var pattern = new URLSearchParams(window.location.search).get("pattern");
  if (!pattern) return;
  var needle = pattern.toLowerCase();
  document.querySelectorAll("td.col-excerpt").forEach(function (cell) {
    var text = cell.textContent;
    var lower = text.toLowerCase();
    if (lower.length !== text.length || lower.indexOf(needle) < 0) return;
    var at = 0;
    var found;
    cell.textContent = "";
    while ((found = lower.indexOf(needle, at)) >= 0) {
      cell.append(text.slice(at, found));
      var mark = document.createElement("mark");
      mark.textContent = text.slice(found, found + needle.length);
      cell.append(mark);
      at = found + needle.length;
    }
    cell.append(text.slice(at));
  });
})();
