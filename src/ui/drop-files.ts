/**
 * A drop zone (Svelte action, `use:dropFiles={onFiles}`): files dropped on the element go to
 * `onFiles`, and the element carries the class `dragging` while files are held over it (style it
 * with `:global(.dragging)`: the class is set here, not in the markup). The browser's default for a
 * drop — opening the file in the tab — is prevented, so a missed drop never leaves the app.
 */
export function dropFiles(node: HTMLElement, onFiles: (files: FileList | undefined) => void) {
  let handle = onFiles;
  const over = (e: DragEvent) => {
    e.preventDefault();
    node.classList.add('dragging');
  };
  const leave = () => node.classList.remove('dragging');
  const drop = (e: DragEvent) => {
    e.preventDefault();
    node.classList.remove('dragging');
    handle(e.dataTransfer?.files);
  };
  node.addEventListener('dragover', over);
  node.addEventListener('dragleave', leave);
  node.addEventListener('drop', drop);
  return {
    update(next: (files: FileList | undefined) => void) {
      handle = next;
    },
    destroy() {
      node.removeEventListener('dragover', over);
      node.removeEventListener('dragleave', leave);
      node.removeEventListener('drop', drop);
    },
  };
}
