/**
 * Issue #14 class 1 in the app: tool names that are members of Object.prototype (`__proto__`,
 * `constructor`, `toString`, …). Before the fix the Tools page crashed for good
 * (`e[n.toolId].push is not a function`) and no tool rows were created. The fixtures fail the test
 * on any uncaught page error or dialog.
 */
import { test, expect } from './support/fixtures';
import { words, writeTemp } from './support/generated-files';

const HOSTILE = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'];
const TOOLS = [...HOSTILE, 'gpt-4', 'claude-3', 'DALLE_3', 'SDXL_Turbo', 'llama-3'];
/** tests/fixtures/bad-inputs/proto-tools.csv: tool → experiences, mean (README, "Data keys"). */
const COUNTS: Record<string, [number, string]> = Object.fromEntries<[number, string]>([
  ['__proto__', [2, '3.00']],
  ['constructor', [2, '4.00']],
  ['toString', [3, '2.00']],
  ['hasOwnProperty', [1, '4.00']],
  ['valueOf', [2, '5.00']],
  ['__defineGetter__', [2, '3.50']],
  ['gpt-4', [2, '4.50']],
  ['claude-3', [2, '3.00']],
  ['DALLE_3', [1, '3.00']],
  ['SDXL_Turbo', [2, '3.00']],
  ['llama-3', [2, '3.00']],
]);

/**
 * The same 11 tools on 48 tasks, enough for evidence clusters: animal prompts score high for the
 * even-numbered tools and low for the odd ones, vehicle prompts the other way round.
 */
function memoryCsv(): string {
  const nouns = [
    ['cat', 'dog', 'horse', 'bird', 'rabbit', 'lion'],
    ['car', 'truck', 'train', 'bicycle', 'boat', 'airplane'],
  ] as const;
  const lines = ['id,prompt,model,score'];
  for (let i = 0; i < 48; i++) {
    const animal = i % 2 === 0;
    const prompt = `A ${nouns[animal ? 0 : 1][Math.floor(i / 2) % 6]} ${animal ? 'sleeping in the grass' : 'parked on the street'} ${words(i, 2)}`;
    const bump = i % 3 === 0 ? 1 : 0;
    TOOLS.forEach((t, j) => lines.push(`t${i},${prompt},${t},${animal === (j % 2 === 0) ? 5 - bump : 1 + bump}`));
  }
  return writeTemp('keys-memory.csv', lines);
}

test('tools named __proto__, constructor, toString… import, show on Tools, Data and Memory, and survive a reload', async ({ memory, tools, page }) => {
  test.setTimeout(240_000); // two imports and a memory build of 11 tools on a 2-core machine
  const importFile = async (path: string, name: string) => {
    await memory.openImport();
    await memory.chooseFile(path);
    await memory.dialog.getByLabel('Dataset name').fill(name);
    await memory.runImport();
    await memory.dialog.getByRole('button', { name: 'Done' }).click();
    await expect(memory.datasetCard(name)).toBeVisible();
  };

  const checkToolsPage = async () => {
    await tools.goTo('Tools');
    await expect(page.getByTestId('tool-card')).toHaveCount(11);
    for (const t of TOOLS) await expect(tools.card(t), t).toHaveCount(1);
    // The card's "Scores" section names the dataset with the tool's count.
    await expect(tools.card('toString')).toContainText('3 experiences');
  };
  const checkDataPage = async () => {
    await memory.goTo('Data');
    const card = memory.datasetCard('Proto tools');
    await expect(card).toContainText('21 experiences');
    await expect(card).toContainText('11 tools');
    for (const [t, [n, mean]] of Object.entries(COUNTS)) {
      const row = card.getByRole('row').filter({ has: page.getByRole('cell', { name: t, exact: true }) });
      await expect(row, t).toHaveText(new RegExp(`^\\s*${t.replace(/[$]/g, '\\$')}\\s*${n}\\s*${mean.replace('.', '\\.')}\\s*$`));
    }
  };
  const checkMemoryPage = async () => {
    await memory.goTo('Memory');
    const tabs = page.getByRole('tablist', { name: 'Tools' }).getByRole('tab');
    await expect(tabs).toHaveCount(11);
    expect((await tabs.allTextContents()).map((t) => t.trim()).sort()).toEqual([...TOOLS].sort());
    for (const t of HOSTILE) {
      await page.getByRole('tab', { name: t, exact: true }).click();
      await expect(page.getByRole('tab', { name: t, exact: true })).toHaveAttribute('aria-selected', 'true');
      // Every tool has at least its overall profile (issue #25), whatever its id.
      await expect(page.getByTestId('profile'), t).toContainText('Overall: averages');
    }
  };

  await memory.open('data');
  await importFile('tests/fixtures/bad-inputs/proto-tools.csv', 'Proto tools');
  await importFile(memoryCsv(), 'Keys memory');

  await checkToolsPage();
  await checkDataPage();

  await memory.goTo('Memory');
  await page.getByLabel('Dataset to learn from').selectOption({ label: 'Keys memory' });
  await memory.build();
  await memory.waitBuilt();
  await checkMemoryPage();

  // Nothing is broken for good: after a reload every page still shows all 11 tools.
  await page.reload();
  await expect(memory.nav).toBeVisible();
  await checkToolsPage();
  await checkDataPage();
  await checkMemoryPage();
});
