export default { displayName: '@workcell/statement-check', preset: '../../jest.preset.js' };
